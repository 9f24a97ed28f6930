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
	`updated_at` text NOT NULL
);
