CREATE TABLE `picture_lookups` (
	`key` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`image_url` text,
	`failures` integer DEFAULT 0 NOT NULL,
	`checked_at` text NOT NULL,
	`retry_after` text NOT NULL,
	`updated_at` text NOT NULL
);
