// The framed input of the channel fuzzers: one byte (the chunk size the stream is fed in, 0 =
// all at once), then the byte stream, fed to a FrameDecoder chunk by chunk as a pipe delivers
// it. Each complete payload goes to `onPayload`; FrameDecoder's ProtocolError (a length over
// kMaxFrameBytes) and whatever `onPayload` throws reach the caller.
#pragma once

#include "protocol/FrameDecoder.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ps::fuzz {

template <class OnPayload> void feedFrames(const std::uint8_t* data, std::size_t size, OnPayload&& onPayload)
{
    if (size == 0)
        return;
    const std::size_t chunk = data[0] == 0 ? size : data[0];
    ++data;
    --size;
    ps::protocol::FrameDecoder decoder;
    for (std::size_t at = 0; at < size; at += chunk) {
        const std::size_t n = size - at < chunk ? size - at : chunk;
        decoder.feed(reinterpret_cast<const char*>(data) + at, n);
        while (auto payload = decoder.next())
            onPayload(std::move(*payload));
    }
}

}  // namespace ps::fuzz
