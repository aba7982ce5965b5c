/** S3's bucket naming rules (3–63 characters of lower case letters, digits, dots and hyphens). */
export const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
