-- A list's total is a COUNT(*) over the list indexes of 0002_deposit_lists.sql, which hold
-- every filter column: the count tables that 0002 made, and every write kept in step, go.
DROP TABLE IF EXISTS deposit_counts;
DROP TABLE IF EXISTS deposit_counts_by_day;
DROP TABLE IF EXISTS deposit_counts_by_bucket;
