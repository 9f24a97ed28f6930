CREATE TABLE `semantic_seqs` (
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`last_seq` integer NOT NULL,
	PRIMARY KEY(`workspace_id`, `kind`)
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_owner` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_node` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `lease_token` text;