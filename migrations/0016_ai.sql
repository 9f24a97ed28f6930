CREATE TABLE `ai_settings` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`fast_model` text DEFAULT '' NOT NULL,
	`widget_model` text DEFAULT '' NOT NULL,
	`widget_cap_micros` integer DEFAULT 0 NOT NULL,
	`own_key_sealed` text,
	`own_key_failed_at` text,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ai_usage` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`feature` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`usd_micros` integer DEFAULT 0 NOT NULL,
	`user_id` text,
	`source` text NOT NULL,
	`ok` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ai_usage_ws_created_idx` ON `ai_usage` (`workspace_id`,`created_at`);