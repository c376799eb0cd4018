-- The name a project's customers see on the hosted pages (terms, verification); null: neutral wording.
-- The project's own `name` is internal (the first run's project is "Default").
ALTER TABLE projects ADD COLUMN display_name text
  CHECK (display_name IS NULL OR char_length(display_name) BETWEEN 1 AND 80);
