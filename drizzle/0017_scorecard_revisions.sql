CREATE TABLE "scorecard_revisions" (
	"repository_id" bigint PRIMARY KEY NOT NULL,
	"revision" bigint DEFAULT 0 NOT NULL,
	"raised_by" bigint
);
--> statement-breakpoint
-- Raises the revision of the repository a changed run, finding or turn belongs to, once per transaction. Run as a
-- deferred trigger: at commit, after the transaction's own writes, so it takes the revision's row lock last and
-- holds it only while committing; the new revision is seen exactly when what moved it is.
CREATE FUNCTION raise_scorecard_revision() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  repository bigint;
  changed_run bigint;
BEGIN
  IF TG_TABLE_NAME = 'runs' THEN
    IF TG_OP = 'DELETE' THEN repository := OLD.repository_id; ELSE repository := NEW.repository_id; END IF;
  ELSE
    IF TG_OP = 'DELETE' THEN changed_run := OLD.run_id; ELSE changed_run := NEW.run_id; END IF;
    -- a run deleted in the same transaction raised its repository's revision itself
    SELECT r.repository_id INTO repository FROM runs r WHERE r.id = changed_run;
  END IF;
  IF repository IS NOT NULL THEN
    INSERT INTO scorecard_revisions AS s (repository_id, revision, raised_by) VALUES (repository, 1, txid_current())
    ON CONFLICT (repository_id) DO UPDATE SET revision = s.revision + 1, raised_by = txid_current()
      WHERE s.raised_by IS DISTINCT FROM txid_current();
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- TRUNCATE has no rows to name a repository by: every revision moves.
CREATE FUNCTION raise_every_scorecard_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scorecard_revisions SET revision = revision + 1, raised_by = txid_current();
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER runs_scorecard_revision AFTER INSERT OR UPDATE OR DELETE ON runs
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION raise_scorecard_revision();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER findings_scorecard_revision AFTER INSERT OR UPDATE OR DELETE ON findings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION raise_scorecard_revision();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER turns_scorecard_revision AFTER INSERT OR UPDATE OR DELETE ON turns
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION raise_scorecard_revision();
--> statement-breakpoint
CREATE TRIGGER runs_truncate_scorecard_revision AFTER TRUNCATE ON runs
  FOR EACH STATEMENT EXECUTE FUNCTION raise_every_scorecard_revision();
--> statement-breakpoint
CREATE TRIGGER findings_truncate_scorecard_revision AFTER TRUNCATE ON findings
  FOR EACH STATEMENT EXECUTE FUNCTION raise_every_scorecard_revision();
--> statement-breakpoint
CREATE TRIGGER turns_truncate_scorecard_revision AFTER TRUNCATE ON turns
  FOR EACH STATEMENT EXECUTE FUNCTION raise_every_scorecard_revision();
