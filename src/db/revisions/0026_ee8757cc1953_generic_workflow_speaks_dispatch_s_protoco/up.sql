-- Instances made before generic-workflow spoke Dispatch's protocol hold Muster's configuration
-- ({url, auth_header}) and talk to receivers of Muster's protocol: they become muster-workflow
-- instances (same ids, so their workflows and runs keep them), and each of their projects gets a
-- fresh, disabled generic-workflow instance. A database with no catalogue yet is left alone.
INSERT INTO "plugin" ("slug", "title", "type", "version", "author", "author_url", "multiple", "description")
SELECT 'muster-workflow', 'Muster Workflow Plugin - Workflow Management', "type", "version", 'Muster', 'https://github.com/muster-project/muster', "multiple",
  'Runs workflows in any system that takes a JSON POST to start a run and answers a GET with its status.'
FROM "plugin" WHERE "slug" = 'generic-workflow'
ON CONFLICT ("slug") DO NOTHING;
--> statement-breakpoint
INSERT INTO "plugin_offered" ("slug")
SELECT 'muster-workflow' WHERE EXISTS (SELECT 1 FROM "plugin" WHERE "slug" = 'muster-workflow')
ON CONFLICT ("slug") DO NOTHING;
--> statement-breakpoint
UPDATE "plugin_instance" SET "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'muster-workflow')
WHERE "plugin_id" = (SELECT "id" FROM "plugin" WHERE "slug" = 'generic-workflow');
--> statement-breakpoint
INSERT INTO "plugin_instance" ("organization_id", "project_id", "plugin_id", "plugin_type", "enabled")
SELECT i."organization_id", i."project_id", g."id", g."type", false
FROM "plugin_instance" i
JOIN "plugin" m ON m."id" = i."plugin_id" AND m."slug" = 'muster-workflow'
CROSS JOIN "plugin" g
WHERE g."slug" = 'generic-workflow';
--> statement-breakpoint
UPDATE "plugin" SET
  "description" = 'A generic workflow plugin that calls an API endpoint to kick-off a workflow and retrieve the status of a workflow.'
WHERE "slug" = 'generic-workflow';
