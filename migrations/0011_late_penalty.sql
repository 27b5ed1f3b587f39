ALTER TABLE `submissions` ADD `raw_score` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `late_penalty_per_day` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `late_penalty_floor` integer DEFAULT 0 NOT NULL;