-- A refund recorded on an order (migration 50) is a PIX transfer of its own: its end-to-end id
-- belongs to one order only. The store writes each with the order's update and refuses one
-- whose id another order holds (the update is then rolled back).
CREATE TABLE order_refunds (
    end_to_end  TEXT PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE
);
CREATE INDEX order_refunds_order ON order_refunds (order_id);
