package telegramtest

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the formats a photo upload may be in
	_ "image/png"
)

// This file follows the Bot API documentation of sendPhoto
// (https://core.telegram.org/bots/api#sendphoto): the photo is uploaded
// with multipart/form-data (or named by a file_id or URL, which this fake
// does not serve); it must be at most 10 MB, its width and height must
// not exceed 10000 in total, and their ratio must be at most 20; the
// caption is 0-1024 characters after entities parsing. The answer is the
// Message with its "photo" sizes.

// PhotoSize is one size of a photo in a Message.
type PhotoSize struct {
	FileID       string `json:"file_id"`
	FileUniqueID string `json:"file_unique_id"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	FileSize     int    `json:"file_size,omitempty"`
}

// maxPhotoBytes is the largest photo upload (10 MB).
const maxPhotoBytes = 10 << 20

// checkPhoto checks an uploaded photo as Telegram does and returns its
// sizes, or the description of a 400.
func checkPhoto(doc *upload) ([]PhotoSize, string) {
	if doc == nil || len(doc.data) == 0 {
		return nil, "there is no photo in the request"
	}
	if len(doc.data) > maxPhotoBytes {
		return nil, "file is too big"
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(doc.data))
	if err != nil {
		return nil, "IMAGE_PROCESS_FAILED"
	}
	w, h := cfg.Width, cfg.Height
	if w <= 0 || h <= 0 || w+h > 10000 || w > 20*h || h > 20*w {
		return nil, "PHOTO_INVALID_DIMENSIONS"
	}
	id := fmt.Sprintf("photo-%d-%d-%d", len(doc.data), w, h)
	return []PhotoSize{{FileID: id, FileUniqueID: id, Width: w, Height: h, FileSize: len(doc.data)}}, ""
}

// Photos returns the photos sent to chat, in order.
func (s *Server) Photos(chat int64) []Sent {
	var out []Sent
	for _, m := range s.SentTo(chat) {
		if m.Method == "sendPhoto" {
			out = append(out, m)
		}
	}
	return out
}
