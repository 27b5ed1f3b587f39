import { z } from "@hono/zod-openapi";

/** Response schemas of chat, notifications, the admins' inbox and feedback, for the OpenAPI document. */
const role = z.enum(["admin", "instructor", "user"]);

export const chatMessageDto = z
  .object({
    id: z.number().int().openapi({ description: "Increases within a group: the resync cursor" }),
    groupId: z.string(),
    author: z.object({ _id: z.string(), name: z.string(), role }).nullable().openapi({ description: "Null once the author's account is deleted" }),
    text: z.string().openapi({ description: "Empty for a deleted message" }),
    replyTo: z.number().int().nullable(),
    createdAt: z.string(),
    deletedAt: z.string().nullable(),
    clientId: z.string().nullable(),
  })
  .openapi("ChatMessage");

export const chatPageDto = z
  .object({
    messages: z.array(chatMessageDto).openapi({ description: "Newest first; deleted messages as tombstones" }),
    nextBefore: z.number().int().nullable().openapi({ description: "Pass as ?before= for the older page; null at the start" }),
  })
  .openapi("ChatPage");

export const sentMessageDto = z.object({ message: chatMessageDto }).openapi("SentMessage");

export const notificationDto = z
  .object({ _id: z.string(), kind: z.string(), title: z.string(), link: z.string().nullable(), createdAt: z.string(), readAt: z.string().nullable() })
  .openapi("Notification");

export const notificationPageDto = z
  .object({ notifications: z.array(notificationDto), unread: z.number().int(), nextBefore: z.string().nullable() })
  .openapi("NotificationPage");

export const notificationReadDto = z.object({ notification: notificationDto, unread: z.number().int() }).openapi("NotificationRead");
export const notificationsReadDto = z.object({ updated: z.number().int(), unread: z.number().int() }).openapi("NotificationsRead");

export const contactMessageDto = z
  .object({ _id: z.string(), name: z.string(), email: z.string(), message: z.string(), createdAt: z.string(), readAt: z.string().nullable() })
  .openapi("ContactMessage");

export const contactPageDto = z
  .object({ messages: z.array(contactMessageDto), total: z.number().int(), unread: z.number().int(), page: z.number().int(), pageSize: z.number().int() })
  .openapi("ContactMessagePage");

export const contactReadDto = z.object({ message: contactMessageDto, unread: z.number().int() }).openapi("ContactMessageRead");
export const contactDeletedDto = z.object({ message: z.string(), unread: z.number().int() }).openapi("ContactMessageDeleted");

export const feedbackRecordDto = z
  .object({
    _id: z.string(),
    userId: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    groupSlug: z.string(),
    userFeedback: z.string(),
    rating: z.number().int().min(0).max(5),
    hidden: z.boolean(),
    createdAt: z.string(),
    editedAt: z.string().nullable().openapi({ description: "When its author last changed it; null as first written" }),
  })
  .openapi("FeedbackRecord");

export const sharedFeedbackDto = z.object({ feedback: feedbackRecordDto }).openapi("SharedFeedback");
