-- Running totals of what each customer has used of its daily (UTC day) and monthly (UTC month) limits,
-- in BRL cents. The transaction that creates a money movement adds its amount to the day and the month
-- it was created in, and the one that moves it to FAILED or EXPIRED takes it off again, so the limit
-- check reads two rows instead of summing a month of transactions.
CREATE TABLE limit_usage (
  customer_id   uuid NOT NULL REFERENCES customers (id),
  period        text NOT NULL CHECK (period IN ('DAY', 'MONTH')),
  -- the first day of the period (UTC)
  period_start  date NOT NULL,
  amount        bigint NOT NULL CHECK (amount >= 0),
  PRIMARY KEY (customer_id, period, period_start),
  CHECK (period = 'DAY' OR extract(day FROM period_start) = 1)
);

-- Totals for what already exists: every transaction that still counts, by its creation's UTC day and month.
INSERT INTO limit_usage (customer_id, period, period_start, amount)
SELECT customer_id, 'DAY', (created_at AT TIME ZONE 'UTC')::date, sum(amount)
  FROM transactions
 WHERE status NOT IN ('FAILED', 'EXPIRED')
 GROUP BY customer_id, (created_at AT TIME ZONE 'UTC')::date
UNION ALL
SELECT customer_id, 'MONTH', date_trunc('month', created_at AT TIME ZONE 'UTC')::date, sum(amount)
  FROM transactions
 WHERE status NOT IN ('FAILED', 'EXPIRED')
 GROUP BY customer_id, date_trunc('month', created_at AT TIME ZONE 'UTC')::date;
