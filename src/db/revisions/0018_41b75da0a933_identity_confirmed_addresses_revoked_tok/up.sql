CREATE TABLE "api_token" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_by" integer,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_address" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"actor_user_id" integer,
	"actor_email" text,
	"actor_token_id" integer,
	"address" text,
	"target_type" text,
	"target_id" text,
	"target_label" text,
	"before" jsonb,
	"after" jsonb,
	"details" jsonb
);
--> statement-breakpoint
CREATE TABLE "email_link" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"organization_id" integer,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "email_confirmed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "tokens_valid_after" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "deactivated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "app_user" ADD COLUMN "service_account" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "organization" ADD COLUMN "password_login" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "api_token" ADD CONSTRAINT "api_token_created_by_app_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."app_user"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "email_link" ADD CONSTRAINT "email_link_user_id_app_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."app_user"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "email_link" ADD CONSTRAINT "email_link_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "api_token_token_hash_key" ON "api_token" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "api_token_organization_idx" ON "api_token" USING btree ("organization_id");
--> statement-breakpoint
CREATE INDEX "audit_log_organization_idx" ON "audit_log" USING btree ("organization_id","occurred_at");
--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("organization_id","action");
--> statement-breakpoint
CREATE UNIQUE INDEX "email_link_token_hash_key" ON "email_link" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "email_link_user_idx" ON "email_link" USING btree ("user_id");
--> statement-breakpoint
-- Accounts made before addresses were confirmed keep seeing what they saw: they count as confirmed.
UPDATE "app_user" SET "email_confirmed_at" = "created_at" WHERE "email_confirmed_at" IS NULL;
--> statement-breakpoint
CREATE FUNCTION muster_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries are never changed';
END
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION muster_audit_log_append_only();
