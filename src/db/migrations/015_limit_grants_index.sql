-- The limits in force are read on every money movement's creation: for each limit, the customer's newest
-- APPROVED or PARTIALLY_APPROVED request that granted it. Walking this index newest first stops at the
-- first such request, however many requests the customer has made (the list index orders by creation,
-- so the read sorted every reviewed request of the customer).
CREATE INDEX limit_requests_granted ON limit_requests (customer_id, updated_at DESC, id DESC)
  WHERE status IN ('APPROVED', 'PARTIALLY_APPROVED');
