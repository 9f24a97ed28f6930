CREATE TABLE `assignment_pointers` (
	`workspace_id` text NOT NULL,
	`scope` text NOT NULL,
	`last_user_id` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `scope`)
);
--> statement-breakpoint
CREATE TABLE `assignment_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`rules` text NOT NULL,
	`auto_away_minutes` integer DEFAULT 0 NOT NULL,
	`away_announced_until` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
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