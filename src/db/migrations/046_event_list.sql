-- `GET /events`: a project environment's events newest first, by page number or by keyset on
-- (created_at, id). Ascending, like the other lists written with every change (migration 024): new
-- entries land at the end of their range and PostgreSQL scans it backwards.
CREATE INDEX events_list ON events (project_id, environment, created_at, id);
