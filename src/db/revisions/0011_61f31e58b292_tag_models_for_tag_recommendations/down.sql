DROP TABLE "tag_model" CASCADE;
