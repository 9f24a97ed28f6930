CREATE TABLE `widget_handoffs` (
	`workspace_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `ticket_id`)
);
