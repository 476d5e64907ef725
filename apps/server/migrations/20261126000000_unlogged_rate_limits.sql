-- Up Migration
-- Rate-limit counters are worth nothing after a crash and are written on every
-- request: keeping them out of the WAL spares each request a disk flush.
ALTER TABLE rate_limits SET UNLOGGED;
