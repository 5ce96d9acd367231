CREATE TABLE "plugin_offered" (
	"slug" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Hand-written: a catalogue written before this revision offered what it holds, and at least
-- Muster's built-ins of that time (an Owner may have uninstalled some: they stay out).
INSERT INTO "plugin_offered" ("slug") SELECT "slug" FROM "plugin" ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "plugin_offered" ("slug")
  SELECT s FROM unnest(ARRAY['muster-ticket', 'muster-participant-resolver', 'muster-contact', 'muster-oncall-http', 'muster-email', 'muster-webhook', 'generic-workflow']) AS s
  WHERE EXISTS (SELECT 1 FROM "plugin")
  ON CONFLICT DO NOTHING;
