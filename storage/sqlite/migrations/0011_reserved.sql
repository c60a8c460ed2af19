-- 0011: reserved for another branch's migration; on this branch it does
-- nothing. Merged with that branch, its own 0011 replaces this file.
SELECT 1;
