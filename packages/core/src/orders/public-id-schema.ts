import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "./public-id.ts";

/** An order's public id as typed by a user or carried in callback data (case-insensitive). */
export const publicIdSchema = z.string().trim().toUpperCase().regex(PUBLIC_ID_PATTERN, "order-id");
