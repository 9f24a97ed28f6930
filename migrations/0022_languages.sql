CREATE TABLE `kb_article_translations` (
	`workspace_id` text NOT NULL,
	`article_id` text NOT NULL,
	`locale` text NOT NULL,
	`title` text NOT NULL,
	`body_html` text DEFAULT '' NOT NULL,
	`body_text` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`source_updated_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `kb_article_translations_unique` ON `kb_article_translations` (`workspace_id`,`article_id`,`locale`);--> statement-breakpoint
CREATE INDEX `kb_article_translations_locale_idx` ON `kb_article_translations` (`workspace_id`,`locale`,`status`);--> statement-breakpoint
ALTER TABLE `users` ADD `locale` text;--> statement-breakpoint
ALTER TABLE `contacts` ADD `locale` text;