-- What each executed write was, in the words its person confirmed (the action's summary, such as
-- 计件登记：张三 上领子 50 件), so the audit lists it without reading the pending action again.
-- Rows written before this migration have none.
ALTER TABLE business_audit ADD COLUMN summary TEXT;
