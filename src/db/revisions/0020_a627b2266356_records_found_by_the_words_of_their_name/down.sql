DROP INDEX "case_leading_words_idx";
--> statement-breakpoint
DROP INDEX "incident_leading_words_idx";
