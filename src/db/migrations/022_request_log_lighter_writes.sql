-- The request log takes one row per request of the partner API, so every index and check on it is paid on
-- every request. Two go:
-- - the foreign key to projects: a row is only ever written for a request authenticated with a key of
--   an existing project, and projects are never deleted; its check ran once per row;
-- - the index on created_at, which only served retention: entries are pruned by their id instead, a v7
--   UUID whose prefix is the time the entry was recorded, through the primary key.
ALTER TABLE request_log DROP CONSTRAINT request_log_project_id_fkey;
DROP INDEX request_log_created;
