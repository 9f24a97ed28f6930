CREATE TABLE `kb_articles` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`collection_id` text NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`body_html` text DEFAULT '' NOT NULL,
	`body_text` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`published_at` text,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kb_articles_slug_unique` ON `kb_articles` (`workspace_id`,`slug`);--> statement-breakpoint
CREATE INDEX `kb_articles_collection_idx` ON `kb_articles` (`workspace_id`,`collection_id`,`position`);--> statement-breakpoint
CREATE INDEX `kb_articles_position_idx` ON `kb_articles` (`workspace_id`,`position`);--> statement-breakpoint
CREATE TABLE `kb_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kb_collections_slug_unique` ON `kb_collections` (`workspace_id`,`slug`);--> statement-breakpoint
CREATE INDEX `kb_collections_position_idx` ON `kb_collections` (`workspace_id`,`position`);