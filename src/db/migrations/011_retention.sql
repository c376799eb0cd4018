-- Finished deliveries by age, for the retention job that deletes old ones (with their attempts).
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at)
  WHERE status IN ('DELIVERED', 'FAILED');
