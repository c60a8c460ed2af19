package matrix

import (
	"context"
	"errors"
	"fmt"

	"maunium.net/go/mautrix"
)

// republishDeviceKeys makes sure the homeserver still has this device's
// keys after the bot logged in again. A session ended with soft_logout
// keeps the device; one logged out for good (Element's session manager,
// an admin; soft_logout false) deleted it with its keys, and logging in
// on the same device id brings the device back without them: no client
// could then encrypt to the bot, and its own messages would show as sent
// by an unknown device. The Olm account is the same, so the same keys are
// published again, and cross-signing signs the device again (crossSign).
func (a *Adapter) republishDeviceKeys(ctx context.Context) error {
	if a.crypto == nil {
		return nil
	}
	mach := a.crypto.Machine()
	var resp *mautrix.RespQueryKeys
	err := a.retry(ctx, "query own keys", func() error {
		var err error
		resp, err = a.cli.QueryKeys(ctx, &mautrix.ReqQueryKeys{DeviceKeys: mautrix.DeviceKeysRequest{a.cli.UserID: mautrix.DeviceIDList{a.cli.DeviceID}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("matrix: query own device keys: %w", err)
	}
	own := mach.OwnIdentity()
	if dev, ok := resp.DeviceKeys[a.cli.UserID][a.cli.DeviceID]; ok && dev.Keys.GetEd25519(a.cli.DeviceID) == own.SigningKey {
		return nil
	}
	acc, err := mach.CryptoStore.GetAccount(ctx)
	if err != nil {
		return fmt.Errorf("matrix: load own account: %w", err)
	}
	if acc == nil {
		return errors.New("matrix: no Olm account in the crypto store")
	}
	a.log.Warn("the homeserver lost this device's keys (the device was logged out); publishing them again", "device", a.cli.DeviceID)
	// The store hands out the machine's own account: not shared makes
	// ShareKeys upload the device keys, with one-time keys (the deleted
	// device's went with it).
	acc.Shared = false
	if err := a.retry(ctx, "publish device keys", func() error { return mach.ShareKeys(ctx, 0) }); err != nil {
		return fmt.Errorf("matrix: publish device keys: %w", err)
	}
	a.crossSign(ctx)
	return nil
}
