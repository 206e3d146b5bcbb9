-- Runs once, when the postgresql service initialises an empty data volume (as POSTGRES_USER).
-- Temporal's auto-setup creates its own databases; Cadre's conversation store lives in `cadre`
-- and creates its tables itself (versioned migrations on first open).
CREATE DATABASE cadre;
