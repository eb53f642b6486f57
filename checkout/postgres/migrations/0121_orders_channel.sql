-- The order list filtered by channel (issue 35's and 36's "filter by channel") reads the
-- orders of that channel in the list's order, as a filter by status does: without these, a
-- channel of few orders (charges, the point of sale) among a million was found by walking
-- every order newest first.
CREATE INDEX orders_channel_created ON orders (channel, created_at, id);
CREATE INDEX orders_channel_amount ON orders (channel, amount, id);
