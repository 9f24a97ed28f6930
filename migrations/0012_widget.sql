CREATE TABLE `visitor_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`token_hash` text NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`claimed_email` text,
	`created_at` text NOT NULL,
	`last_seen_at` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `visitor_sessions_token_unique` ON `visitor_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `visitor_sessions_contact_idx` ON `visitor_sessions` (`workspace_id`,`contact_id`);--> statement-breakpoint
CREATE TABLE `widget_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`greeting` text NOT NULL,
	`require_email` integer DEFAULT false NOT NULL,
	`allowed_origins` text DEFAULT '[]' NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `widget_uploads` (
	`attachment_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`contact_id` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `widget_uploads_contact_idx` ON `widget_uploads` (`workspace_id`,`contact_id`);