CREATE TABLE `event_seqs` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`last_seq` integer NOT NULL
);
