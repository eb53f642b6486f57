-- The merchant API lists the notifications (the outbox's deliveries, whose tables the outbox's
-- own migrations made before these) newest first by id, paged by key: filtered by status, this
-- index finds a page without reading the status's other rows.

CREATE INDEX webhook_deliveries_status_id ON webhook_deliveries (status, id);
