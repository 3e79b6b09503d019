import torch

torch.manual_seed(0)
backend = "eager"


class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(10, 4)
        self.out = torch.nn.Linear(4, 10, bias=False)
        self.out.weight = self.embed.weight  # tied

    def forward(self, ids):
        return self.out(self.embed(ids))


def fn(model, ids):
    loss = model(ids).logsumexp(-1).mean()
    loss.backward()
    return loss


example_inputs = lambda: (Tied(), torch.tensor([[1, 2, 3], [4, 5, 6]]))  # noqa: E731
