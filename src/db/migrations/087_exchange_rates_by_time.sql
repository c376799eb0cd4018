-- The console's rates chart reads the quotes of the last 24 hours across projects, newest first.
CREATE INDEX exchange_rates_created ON exchange_rates (created_at DESC, id DESC);
