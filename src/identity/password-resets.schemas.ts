import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./passwords";

export const NewPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH);

export const ForgotPasswordBody = z.object({ email: z.string().trim().toLowerCase().min(1).max(320) }).strict();

export const ResetPasswordBody = z
  .object({ token: z.string().min(1).max(200).describe("from the reset link (after `#`)"), password: NewPassword })
  .strict();
