CREATE TABLE `notification_preferences` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`email` text NOT NULL,
	`digest_sent_at` text,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`)
);
--> statement-breakpoint
ALTER TABLE `notifications` ADD `emailed_at` text;