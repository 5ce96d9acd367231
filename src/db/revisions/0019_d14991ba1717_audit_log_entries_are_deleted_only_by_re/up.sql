-- An audit entry is deleted only by the retention task, which names in its transaction the time before
-- which entries may go (muster.audit_log_purge_before), or with its organization (the foreign key's
-- cascade, once the organization row is gone). Every other DELETE, and any TRUNCATE, is refused.
CREATE FUNCTION muster_audit_log_delete_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "organization" WHERE "id" = OLD."organization_id") THEN
    RETURN OLD;
  END IF;
  IF OLD."occurred_at" < nullif(current_setting('muster.audit_log_purge_before', true), '')::timestamptz THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log entries are deleted only by retention' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_delete_guard BEFORE DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION muster_audit_log_delete_guard();
--> statement-breakpoint
CREATE FUNCTION muster_audit_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is never truncated' USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION muster_audit_log_no_truncate();
