-- Two indexes of transactions that no query uses any more, each written on every creation and on every
-- status change: the limit check reads the running totals of limit_usage (014) instead of summing a
-- customer's transactions, and settlement claims through transactions_settlement_due (010).
DROP INDEX transactions_usage;
DROP INDEX transactions_in_flight;
