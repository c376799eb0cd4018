-- The Banco Central's PTAX closing bulletins as Ponte fetched them: one per business day, the official
-- USD/BRL reference kept beside the market feeds (the deviation anchor). Figures are BRL per USD at
-- scale 10 (5.1234 is 51234000000).
CREATE TABLE ptax_bulletins (
  day           date PRIMARY KEY,
  buy           bigint NOT NULL CHECK (buy > 0),
  sell          bigint NOT NULL CHECK (sell > 0),
  published_at  text NOT NULL,
  fetched_at    timestamptz NOT NULL
);
