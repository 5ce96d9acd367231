-- Every beginning of every word of a vector, up to 12 letters, and every whole word, as a vector
-- without positions (db/columns.ts wordPrefixes): `payme` is found by one exact index lookup.
CREATE FUNCTION muster_word_prefixes(words tsvector) RETURNS tsvector LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT array_to_tsvector(ARRAY(
    SELECT left(w, CASE WHEN n > 12 THEN length(w) ELSE n END) FROM unnest(tsvector_to_array(words)) AS w, generate_series(1, least(length(w), 13)) AS n
  ))
$$;
--> statement-breakpoint
DROP INDEX "case_leading_words_idx";
--> statement-breakpoint
DROP INDEX "incident_leading_words_idx";
--> statement-breakpoint
CREATE INDEX "case_leading_prefixes_idx" ON "case" USING gin (muster_word_prefixes(to_tsvector('simple'::regconfig, coalesce("name", '') || ' ' || coalesce("title", ''))));
--> statement-breakpoint
CREATE INDEX "incident_leading_prefixes_idx" ON "incident" USING gin (muster_word_prefixes(to_tsvector('simple'::regconfig, coalesce("name", '') || ' ' || coalesce("title", ''))));
