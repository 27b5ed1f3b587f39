/**
 * Notification texts, rendered in the reader's language from the kind and parameters stored with each
 * notification (app/lib/notification-text.ts). A kind with variants uses `notification.<kind>.<variant>`.
 */
export const notificationsEn = {
  "notification.contact-message": "New message from {name}",
  "notification.feedback": "New feedback from {name} ({group})",
  "notification.join-request": "{name} asked to join {group}",
  "notification.join-decision.approved": "You're in! Your request to join {group} was approved",
  "notification.join-decision.special": "You're in! You joined {group} on special terms",
  "notification.join-decision.rejected": "Your request to join {group} was not approved",
  "notification.join-decision.restored": "You were added back to {group}",
  "notification.membership-removed": "You were removed from {group}",
  "notification.lecture-published": "New lecture in {group}: {lecture}",
  "notification.lectures-scheduled": "{count, plural, one {# lecture was} other {# lectures were}} scheduled in {group}",
  "notification.task-created": "New task in {group}: {task}",
  "notification.quiz-published": "New quiz in {group}: {quiz}",
  "notification.submission-created": "{name} handed in {task} ({group})",
  "notification.submission-graded": "Your work on {task} was graded: {score}/{max}",
  "notification.submission-returned": "A new version of your work on {task} was asked for",
  "notification.grades-released": "Your grade for {task} is out",
  "notification.extension-granted": "You have more time for {work}",
  "notification.quiz-not-published": "{quiz} was not published: its draws need more questions in the question bank",
  "notification.submission-regraded": "Your grade on {task} is now {score}/{max}: its late penalty changed",
  "notification.exercise-retested": "Your grade on {task} is now {score}/{max}: the tests were run again on your code",
  "notification.quiz-regraded": "Your score on {quiz} is now {score}/{max}",
  "notification.submission-comment": "{name} wrote about {task}",
  "notification.announcement": "{group}: {title}",
  "notification.certificate-issued": "Your certificate for {course} is ready",
  "notification.certificate-revoked": "Your certificate for {course} was revoked",
} as const;
