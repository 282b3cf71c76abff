-- The notice chain's pass (alarm/noticeChain.ts) rewrites the chain columns (level, repeats,
-- notified_at, level_since) of every exception it steps: ten thousand rows a pass when a large
-- site is in trouble. With notified_at indexed no such update could be a heap-only (HOT) update,
-- so each wrote a new entry into every one of the table's indexes. The open chains are found by
-- their id instead (a pass orders its candidates itself), so a step changes no indexed column,
-- and pages keep a tenth free for the new row versions that HOT updates put beside the old.
DROP INDEX IF EXISTS exception_notice_chain;
CREATE INDEX exception_notice_chain ON exception_record (id) WHERE chain_open;
ALTER TABLE exception_record SET (fillfactor = 90);
