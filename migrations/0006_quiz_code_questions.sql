ALTER TABLE `attempts` ADD `verdicts` text;--> statement-breakpoint
ALTER TABLE `questions` ADD `code` text;