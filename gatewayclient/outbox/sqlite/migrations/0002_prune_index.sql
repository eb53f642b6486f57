-- Finished deliveries (delivered or dead) by age, for the retention sweep that deletes them.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'dead');
