-- An attempt's qr_png held the gateway's picture; it now holds the checkout's own drawing of the
-- verified BR Code, made when the attempt becomes active. The gateway's pictures are dropped:
-- the pages draw those attempts' images from their codes.
UPDATE attempts SET qr_png = NULL;
