CREATE TABLE `semantic_dirty` (
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`doc_id` text NOT NULL,
	`source_text` text,
	`version` integer DEFAULT 1 NOT NULL,
	`marked_at` text NOT NULL,
	PRIMARY KEY(`kind`, `doc_id`)
);
--> statement-breakpoint
CREATE INDEX `semantic_dirty_ws_idx` ON `semantic_dirty` (`workspace_id`,`marked_at`);--> statement-breakpoint
CREATE TABLE `semantic_state` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`backfill_after` text DEFAULT '' NOT NULL,
	`backfilled_at` text
);
--> statement-breakpoint
CREATE TABLE `semantic_vectors` (
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`doc_id` text NOT NULL,
	`model` text NOT NULL,
	`vector` blob,
	`source_text` text,
	`seq` integer NOT NULL,
	`embedded_at` text NOT NULL,
	PRIMARY KEY(`kind`, `doc_id`)
);
--> statement-breakpoint
CREATE INDEX `semantic_vectors_ws_kind_seq_idx` ON `semantic_vectors` (`workspace_id`,`kind`,`seq`);--> statement-breakpoint
CREATE TABLE `widget_cap_notices` (
	`workspace_id` text NOT NULL,
	`month` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `month`)
);
--> statement-breakpoint
CREATE TABLE `widget_handoffs` (
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `ticket_id`)
);
