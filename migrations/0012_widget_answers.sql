CREATE TABLE `widget_cap_notices` (
	`workspace_id` text NOT NULL,
	`month` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`workspace_id`, `month`)
);
