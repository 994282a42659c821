-- Where a chunk of a file sits, so a citation can name it (工艺单.pdf, 第 2 页; 工价表.xlsx, 工价),
-- and why a document failed as a reason code and its figures, which each person reads in their own
-- language (the English `error` stays for the API).
ALTER TABLE chunks ADD COLUMN page INTEGER;
ALTER TABLE chunks ADD COLUMN sheet TEXT;
ALTER TABLE documents ADD COLUMN error_reason TEXT;
ALTER TABLE documents ADD COLUMN error_params TEXT;
