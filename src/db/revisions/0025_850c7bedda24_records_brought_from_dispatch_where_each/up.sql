CREATE TABLE "case_note" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"case_id" integer NOT NULL,
	"content" text,
	"last_updated_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "import_source" (
	"scope" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text NOT NULL,
	"target_id" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_source_scope_kind_source_id_pk" PRIMARY KEY("scope","kind","source_id")
);
--> statement-breakpoint
ALTER TABLE "case" ADD COLUMN "resolved_by_id" integer;
--> statement-breakpoint
ALTER TABLE "feedback" ADD COLUMN "case_id" integer;
--> statement-breakpoint
ALTER TABLE "case_note" ADD CONSTRAINT "case_note_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_note" ADD CONSTRAINT "case_note_project_id_project_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."project"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_note" ADD CONSTRAINT "case_note_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "case_note" ADD CONSTRAINT "case_note_last_updated_by_id_individual_contact_id_fk" FOREIGN KEY ("last_updated_by_id") REFERENCES "public"."individual_contact"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "case_note_case_idx" ON "case_note" USING btree ("case_id");
--> statement-breakpoint
ALTER TABLE "case" ADD CONSTRAINT "case_resolved_by_id_app_user_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_case_id_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."case"("id") ON DELETE cascade ON UPDATE no action;
