CREATE TABLE `onboarding_dismissals` (
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`dismissed_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `user_id`)
);
--> statement-breakpoint
CREATE TABLE `triage_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`auto_triage` integer DEFAULT false NOT NULL,
	`fields` text NOT NULL,
	`assign_after_triage` integer DEFAULT false NOT NULL,
	`threshold` real NOT NULL,
	`updated_at` text NOT NULL
);
