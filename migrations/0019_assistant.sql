CREATE TABLE `assistant_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`auth_session_id` text,
	`call_id` text NOT NULL,
	`step_id` text NOT NULL,
	`tool` text NOT NULL,
	`args` text NOT NULL,
	`preview` text NOT NULL,
	`token_hash` text NOT NULL,
	`status` text NOT NULL,
	`expires_at` text NOT NULL,
	`decided_at` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `assistant_actions_session_idx` ON `assistant_actions` (`session_id`,`status`);--> statement-breakpoint
CREATE TABLE `assistant_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`user_id` text NOT NULL,
	`title` text NOT NULL,
	`transcript` text NOT NULL,
	`messages` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `assistant_sessions_user_idx` ON `assistant_sessions` (`workspace_id`,`user_id`,`updated_at`);