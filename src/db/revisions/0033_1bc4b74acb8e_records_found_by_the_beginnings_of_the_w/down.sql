DROP INDEX "case_leading_prefixes_idx";
--> statement-breakpoint
DROP INDEX "incident_leading_prefixes_idx";
--> statement-breakpoint
CREATE INDEX "case_leading_words_idx" ON "case" USING gin (to_tsvector('simple'::regconfig, coalesce("name", '') || ' ' || coalesce("title", '')));
--> statement-breakpoint
CREATE INDEX "incident_leading_words_idx" ON "incident" USING gin (to_tsvector('simple'::regconfig, coalesce("name", '') || ' ' || coalesce("title", '')));
--> statement-breakpoint
DROP FUNCTION muster_word_prefixes(tsvector);
