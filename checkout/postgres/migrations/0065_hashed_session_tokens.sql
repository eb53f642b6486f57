-- Sessions are kept under the SHA-256 of their token from now on, never the token itself: a
-- copy of the database file no longer signs anybody in. The tokens kept until now are dropped,
-- so every dashboard user signs in once again and shoppers' carts start empty.

DELETE FROM sessions;
