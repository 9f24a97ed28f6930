CREATE TABLE `csat_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`event_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`expires_at` text NOT NULL,
	`sent_at` text,
	`score` integer,
	`comment` text,
	`rated_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `csat_requests_token_unique` ON `csat_requests` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `csat_requests_event_unique` ON `csat_requests` (`event_id`);--> statement-breakpoint
CREATE INDEX `csat_requests_ticket_idx` ON `csat_requests` (`workspace_id`,`ticket_id`,`created_at`);--> statement-breakpoint
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
--> statement-breakpoint
CREATE INDEX `tickets_ws_autoclose_idx` ON `tickets` (`workspace_id`,`solved_at`) WHERE status = 'solved' AND deleted_at IS NULL AND merged_into_id IS NULL;